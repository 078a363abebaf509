/**
 * Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF and CR; lone surrogates; U+FFFE and
 * U+FFFF): an error message or a model's text may hold them, and one would make the whole file unreadable.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching those characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Text for an XML attribute value or element content: escaped, and stripped of what XML cannot hold. */
export const xmlText = (text: string): string =>
  text
    .replace(NOT_XML, "\uFFFD")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    // Attribute values normalise raw line breaks and tabs to spaces; as references they survive.
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;")
