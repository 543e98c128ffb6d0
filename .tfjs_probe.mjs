import * as tf from '@tensorflow/tfjs-core';
import * as wasm from '@tensorflow/tfjs-backend-wasm';
wasm.setThreadsCount(1);
await tf.setBackend('wasm');
await tf.ready();
const a = tf.randomNormal([672,64]); const b = tf.randomNormal([64,256]);
for (let r=0;r<5;r++){let t0=performance.now(); for(let i=0;i<50;i++){ tf.tidy(()=>tf.matMul(a,b).dataSync()); } console.log('ms/call', (performance.now()-t0)/50);}
for (let r=0;r<3;r++){let t0=performance.now(); for(let i=0;i<50;i++){ tf.tidy(()=>tf.matMul(a,b,true,false).dataSync()); } console.log('tn ms/call', (performance.now()-t0)/50);}
