// The bundled `csv` workflow, Codex's spawn_agents_on_csv as a script: one agent per row, the
// instruction's `{column}` placeholders filled from the row, an optional schema per row. The
// host reads the CSV into `args.rows` before and writes the results CSV after (csv-run.ts).
export const CSV_WORKFLOW = `export const meta = {
  name: 'csv',
  description: 'One agent per row of a CSV file: the instruction with {column} placeholders filled from the row, an optional output schema, results written to a CSV.',
  whenToUse: 'args: { csv_path, instruction, id_column?, output_csv_path?, output_schema?, agent_type?, model? }',
};

const fill = (template, row) =>
  template.replace(/\\{([^{}]+)\\}/g, (whole, column) => (column in row ? String(row[column]) : whole));

phase('rows');
log(args.rows.length + ' rows from ' + args.csv_path);
export const result = await pipeline(args.rows, (row) =>
  agent(fill(args.instruction, row.values), {
    label: row.id,
    ...(args.output_schema ? { schema: args.output_schema } : {}),
    ...(args.agent_type ? { agentType: args.agent_type } : {}),
    ...(args.model ? { model: args.model } : {}),
  }),
);
`;
