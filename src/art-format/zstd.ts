// Zstandard for ART's Parquet (pyarrow `compression="zstd"`): @bokuweb/zstd-wasm compresses and
// decompresses (Node 20 has no zstd in zlib; its WebAssembly decodes ART's files several times faster
// than hyparquet-compressors' JavaScript). The WebAssembly module loads once.
import { compress, decompress, init } from '@bokuweb/zstd-wasm';

let ready: Promise<void> | null = null;

export function zstdReady(): Promise<void> {
  ready ??= init();
  return ready;
}

/** Compresses at pyarrow's default level; call zstdReady() first. */
export function zstdCompress(input: Uint8Array): Uint8Array {
  return compress(input, 3);
}

/** The content size a zstd frame's header declares, or null (none given, or not one frame header). */
function frameContentSize(b: Uint8Array): number | null {
  if (b.length < 6 || b[0] !== 0x28 || b[1] !== 0xb5 || b[2] !== 0x2f || b[3] !== 0xfd) return null;
  const d = b[4];
  const single = (d >> 5) & 1;
  const fcsBytes = [single ? 1 : 0, 2, 4, 8][d >> 6];
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][d & 3];
  if (fcsBytes === 0 || b.length < at + fcsBytes) return null;
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + b[at + i];
  return fcsBytes === 2 ? size + 256 : size;
}

/**
 * Decompresses one Parquet page (hyparquet's compressor signature; call zstdReady() first): in
 * WebAssembly when the frame declares the page's size, so the module never allocates more than the
 * page header says; otherwise (or on any doubt) with `fallback`, hyparquet-compressors' decoder.
 */
export function zstdDecompress(
  input: Uint8Array,
  outputLength: number,
  fallback: (input: Uint8Array, outputLength: number) => Uint8Array,
): Uint8Array {
  if (frameContentSize(input) === outputLength && outputLength > 0) {
    try {
      const out = decompress(input, { defaultHeapSize: outputLength });
      if (out.length === outputLength) return out;
    } catch {
      // not what it declared: the JavaScript decoder says why
    }
  }
  return fallback(input, outputLength);
}
