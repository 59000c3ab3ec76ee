/** Sizes in bytes, and how messages write them. */

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** `67108864` → "64 MiB", `1536` → "1.5 KiB", `12` → "12 bytes". */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, "GiB"],
    [MiB, "MiB"],
    [KiB, "KiB"],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}
