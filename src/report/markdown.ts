/** Makes text safe inside a Markdown table cell: no row breaks, no column breaks, no raw HTML. */
export function tableCell(text: string, maxLength = 500): string {
  const flat = text.replace(/\r?\n/g, " ").replace(/\s+/g, " ").trim();
  const cut = flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
  return cut.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function codeCell(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
}

export function link(label: string, url: string | undefined): string {
  if (!url || !/^https?:\/\//.test(url)) return "";
  return `[${tableCell(label, 80)}](${url.replace(/\)/g, "%29").replace(/ /g, "%20")})`;
}
