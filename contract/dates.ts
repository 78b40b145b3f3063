/**
 * Epoch milliseconds (as stored) to the ISO 8601 text every API response carries. `Number()`
 * because MySQL drivers may hand a BIGINT column back as a string.
 */
export const iso = (ms: number): string => new Date(Number(ms)).toISOString();
