/** Types of xlsx-sheet.mjs (plain JavaScript so the parsing worker thread loads it as is). */
export function cellText(value: unknown): string;
export function firstSheetTexts(buffer: Uint8Array): Promise<{ rows: [rowNumber: number, cells: string[]][]; error?: undefined } | { error: 'invalid' | 'empty'; rows?: undefined }>;
