/**
 * JSON.parse that keeps integers beyond Number.MAX_SAFE_INTEGER exact by turning them into strings
 * before parsing. The spec serializes Long values as strings; this guards against a server that
 * sends them as bare numbers anyway.
 *
 * @example parseJsonLossless('{"n": 12345678901234567890}') // { n: '12345678901234567890' }
 */
export function parseJsonLossless(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return JSON.parse(quoteBigIntegers(text));
}

/** Wraps integer literals of 16+ digits (outside strings) in quotes; leaves everything else as is. */
function quoteBigIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      i++;
      while (i < n && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"${literal}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return out + text.slice(last);
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}
