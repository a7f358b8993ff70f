/**
 * A table of rows under a header row: one header cell a column ("" an empty one, null or false
 * none), the children its body rows; other attributes (`class`) go on the table.
 */
export function Table(
  props: { class?: string; columns: ReadonlyArray<string | null | false>; children?: unknown },
) {
  const { columns, children, ...attributes } = props;
  return (
    <table {...attributes}>
      <thead>
        <tr>
          {columns.map((column) => column === null || column === false ? null : <th>{column}</th>)}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
