// Reads web/types/sqrtdk-lab.d.ts with the TypeScript compiler API (typescript is a devDependency), so tests
// can hold the declarations against the code: interface members, their optionality and literal types.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO } from './browser.mjs';

const require = createRequire(import.meta.url);

export const DECLARATIONS = join(REPO, 'web/types/sqrtdk-lab.d.ts');

/** The typescript module, or a clear failure when `npm ci` has not installed it. */
export function typescript() {
  try {
    return require('typescript');
  } catch {
    throw new Error('typescript is not installed: run `npm ci` (it is pinned in package.json devDependencies)');
  }
}

/** The path of tsc. */
export function tscPath() {
  typescript();
  return join(require.resolve('typescript/package.json'), '..', 'bin/tsc');
}

/**
 * One exported interface of the declarations: member name -> {optional, type}, where type is
 * 'number' | 'string' | 'boolean' | {literals: [...]} | {arrayOf: {literals: [...]}} | 'other'.
 */
export function declaredInterface(name) {
  const ts = typescript();
  const program = ts.createProgram([DECLARATIONS], { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(DECLARATIONS);
  const declaration = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!declaration) throw new Error(`${name} is not declared`);
  const describe = (type) => {
    const flags = type.getFlags();
    if (flags & ts.TypeFlags.Number) return 'number';
    if (flags & ts.TypeFlags.String) return 'string';
    if (flags & ts.TypeFlags.Boolean || (type.isUnion() && type.types.every((t) => t.getFlags() & ts.TypeFlags.BooleanLiteral))) return 'boolean';
    if (type.isLiteral() || (type.isUnion() && type.types.every((t) => t.isLiteral()))) {
      return { literals: (type.isUnion() ? type.types : [type]).map((t) => t.value).sort() };
    }
    if (checker.isArrayType(type)) return { arrayOf: describe(checker.getTypeArguments(type)[0]) };
    return 'other';
  };
  const members = new Map();
  for (const symbol of checker.getPropertiesOfType(checker.getTypeAtLocation(declaration))) {
    const optional = Boolean(symbol.getFlags() & ts.SymbolFlags.Optional);
    const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, declaration));
    members.set(symbol.getName(), { optional, type: describe(type) });
  }
  return members;
}
