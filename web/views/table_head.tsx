// deno-lint-ignore-file jsx-key -- server-rendered HTML: keys are a client-side diffing concern
/** The header row of a `table.list`: one cell a column ("" an empty one, null or false none). */
export function TableHead(props: { columns: ReadonlyArray<string | null | false> }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) =>
          column === null || column === false ? null : <th>{column}</th>
        )}
      </tr>
    </thead>
  );
}
