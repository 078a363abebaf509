/** PostgreSQL returns BIGINT and COUNT as strings; SQLite as numbers. */
export const num = (value: unknown): number => (typeof value === "number" ? value : Number(value))
export const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : num(value))
