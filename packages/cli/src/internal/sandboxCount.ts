/** `1 sandbox`, `2 sandboxes`: how the commands that remove sandboxes count them. */
export const sandboxCount = (count: number): string => `${count} sandbox${count === 1 ? "" : "es"}`
