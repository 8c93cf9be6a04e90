/**
 * The first module the start function runs (index.ts imports it first): it moves this
 * instance's heap to the slot its host gives it, before anything else is allocated.
 *
 * Every instance of the module runs the start function, and the runtime (stub: a bump
 * allocator) hands out the same addresses in each. With one memory shared by several
 * instances (threads, Lazy SMP) they would all use the same board and stacks, so the host of
 * the shared build (src/engine/wasm/smp.ts) answers env.heapReserve with a distinct number of
 * bytes per instance; a host with a memory of its own answers 0.
 */

// @ts-ignore: decorator
@external('env', 'heapReserve')
declare function heapReserve(): usize;

const reserve = heapReserve();
if (reserve > 0) heap.alloc(reserve);
