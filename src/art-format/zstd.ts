// Zstandard for ART's Parquet (pyarrow `compression="zstd"`): hyparquet-compressors decompresses,
// @bokuweb/zstd-wasm compresses (Node 20 has no zstd in zlib). The WebAssembly module loads once.
import { compress, init } from '@bokuweb/zstd-wasm';

let ready: Promise<void> | null = null;

export function zstdReady(): Promise<void> {
  ready ??= init();
  return ready;
}

/** Compresses at pyarrow's default level; call zstdReady() first. */
export function zstdCompress(input: Uint8Array): Uint8Array {
  return compress(input, 3);
}
