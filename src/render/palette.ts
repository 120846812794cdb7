/**
 * Chart colours: the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008), which stays
 * distinguishable under the common forms of colour blindness. Ordered for contrast on white;
 * yellow, the weakest on white, comes last.
 */
export const PALETTE: readonly string[] = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#D55E00', // vermillion
  '#56B4E9', // sky blue
  '#999999', // grey
  '#F0E442', // yellow
];

/** Threshold lines are near-black and dashed, so they never read as one more series. */
export const THRESHOLD_COLOUR = '#222222';
export const GRID_COLOUR = '#E6E6E6';
export const TEXT_COLOUR = '#1D1C1D';
export const MUTED_TEXT_COLOUR = '#616061';
export const BACKGROUND_COLOUR = '#FFFFFF';

/** The i-th series colour, cycling past the end of the palette. */
export function seriesColour(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length] as string;
}

/** A `#RRGGBB` colour with an alpha, as `rgba()`: comparison series and bar fills use it. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
