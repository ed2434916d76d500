// CSV as the bundled `csv` workflow reads and writes it (RFC 4180: quoted fields, doubled
// quotes, line breaks inside quotes), with Codex's rules: unique headers, every row as wide as
// the header, empty rows skipped.

/** The header and rows of `text`, or an Error naming the line that is wrong. */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const records: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push({ fields, line: recordLine });
      fields = [];
      field = '';
      line++;
      recordLine = line;
    } else field += char;
  }
  if (quoted) throw new Error(`line ${recordLine}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    records.push({ fields, line: recordLine });
  }
  const nonEmpty = records.filter(
    (record) => !(record.fields.length === 1 && record.fields[0] === ''),
  );
  const [head, ...body] = nonEmpty;
  if (!head) throw new Error('the file has no header row');
  const header = head.fields.map((name) => name.trim());
  const duplicate = header.find((name, index) => header.indexOf(name) !== index);
  if (duplicate !== undefined)
    throw new Error(`line ${head.line}: the header "${duplicate}" appears twice`);
  for (const record of body) {
    if (record.fields.length !== header.length) {
      throw new Error(
        `line ${record.line}: ${record.fields.length} fields, the header has ${header.length}`,
      );
    }
  }
  return { header, rows: body.map((record) => record.fields) };
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (value: string) =>
    /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\n')}\n`;
}
