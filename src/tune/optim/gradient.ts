/**
 * Full-batch gradient methods over the linearised evaluation, as modern Texel tuners do:
 * Adam (Kingma & Ba; the step is about `rate` centipawns whatever the gradient's scale, which
 * suits weights from 1 to 1000 cp) and AdaGrad (Ethereal's tuner: each value's step shrinks
 * with its own accumulated squared gradient). Values are clamped to their group's range after
 * every step; values that are not tuned never move.
 */
import type { FitContext } from './context.js';

export interface GradientOptions {
  /** Step size in centipawns (default: Adam 1, AdaGrad 5). */
  rate?: number;
}

export async function adam(ctx: FitContext, opts: GradientOptions = {}): Promise<void> {
  const rate = opts.rate ?? 1;
  const b1 = 0.9;
  const b2 = 0.999;
  const eps = 1e-12;
  const { w, space } = ctx;
  const free = space.free;
  const grad = new Float64Array(w.length);
  const m = new Float64Array(w.length);
  const v = new Float64Array(w.length);
  let p1 = 1;
  let p2 = 1;
  let epoch = 0;
  for (; epoch < ctx.epochs && Date.now() < ctx.deadline; epoch++) {
    const loss = await ctx.obj.lossGrad(w, ctx.K, grad);
    // The loss reported is that of the weights the gradient was taken at.
    if ((await ctx.onEpoch(epoch, loss, w)) === false) return;
    p1 *= b1;
    p2 *= b2;
    for (let k = 0; k < free.length; k++) {
      const i = free[k]!;
      const g = grad[i]!;
      m[i] = b1 * m[i]! + (1 - b1) * g;
      v[i] = b2 * v[i]! + (1 - b2) * g * g;
      const mh = m[i]! / (1 - p1);
      const vh = v[i]! / (1 - p2);
      w[i] -= (rate * mh) / (Math.sqrt(vh) + eps);
    }
    space.clamp(w);
  }
  await ctx.onEpoch(epoch, await ctx.obj.loss(w, ctx.K), w);
}

export async function adagrad(ctx: FitContext, opts: GradientOptions = {}): Promise<void> {
  const rate = opts.rate ?? 5;
  const eps = 1e-12;
  const { w, space } = ctx;
  const free = space.free;
  const grad = new Float64Array(w.length);
  const acc = new Float64Array(w.length);
  let epoch = 0;
  for (; epoch < ctx.epochs && Date.now() < ctx.deadline; epoch++) {
    const loss = await ctx.obj.lossGrad(w, ctx.K, grad);
    if ((await ctx.onEpoch(epoch, loss, w)) === false) return;
    for (let k = 0; k < free.length; k++) {
      const i = free[k]!;
      const g = grad[i]!;
      acc[i] += g * g;
      w[i] -= (rate * g) / (Math.sqrt(acc[i]!) + eps);
    }
    space.clamp(w);
  }
  await ctx.onEpoch(epoch, await ctx.obj.loss(w, ctx.K), w);
}
