import type { DimensionExclusionRule, Limits } from './types.js';

/** Forbidden dimension combinations (spec, "Dimension rules" 1 and "Limits"). */
export const DIMENSION_RULES: readonly DimensionExclusionRule[] = [
  {
    id: 'site-vs-geo-and-ad',
    left: ['siteName', 'siteBundle'],
    right: ['region', 'city', 'dma', 'zipCode', 'ad', 'adId'],
    message: 'siteName and siteBundle cannot be queried together with region, city, dma, zipCode, ad or adId',
  },
];

/** The spec's numeric limits. */
export const LIMITS: Limits = {
  hourlyMaxAgeDays: 15,
  siteBundleMaxAgeMonths: 3,
  intMin: -2147483648,
  intMax: 2147483647,
  uniqueCountError: 0.02,
};
