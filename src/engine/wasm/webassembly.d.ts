// The part of the WebAssembly JavaScript API the core uses. TypeScript declares it only in its
// DOM and web-worker libraries, which this Node-and-browser package does not load.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBuffer | ArrayBufferView);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
}
// compileStreaming is declared here for the same reason (src/engine/wasm/load.ts).
declare namespace WebAssembly {
  function compileStreaming(source: Response | PromiseLike<Response>): Promise<Module>;
}
