// Entry of web/dist/sqrtdk-lab.js: defines <sqrtdk-lab> (once, even if the script is included twice).

import { SqrtdkLabElement } from './element/sqrtdk-lab.js';

if (!customElements.get('sqrtdk-lab')) customElements.define('sqrtdk-lab', SqrtdkLabElement);
