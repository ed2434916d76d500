// The plain-text tables of the CLI's listings (agents, MCP servers, tasks, worktrees): each
// column as wide as its widest cell, two spaces between columns, no white space at line ends.

/** The rows as lines; the first row (the header) decides how many columns there are. */
export function textTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}
