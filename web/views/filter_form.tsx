import type { Child } from "hono/jsx";

/**
 * A list page's filter form: a plain GET to `action` without JavaScript; with htmx, typing (300 ms
 * after the last key), a change of a `changeOn` control or submit refreshes `target` from `list`.
 */
export function FilterForm(props: {
  action: string;
  list: string;
  target: string;
  /** The controls whose change refreshes at once (default `select`). */
  changeOn?: string;
  children?: Child;
}) {
  return (
    <form
      class="row filters"
      method="get"
      action={props.action}
      hx-get={props.list}
      hx-target={props.target}
      hx-trigger={`input changed delay:300ms from:find input, change from:find ${
        props.changeOn ?? "select"
      }, submit`}
    >
      {props.children}
    </form>
  );
}
