// Telling warren's own errors apart by the `true` mark each class carries (`isConfigError`),
// as the AI SDK does with its errors: unlike instanceof, a mark still holds for an error made by
// another copy of the module (two installs of warren side by side, a bundled copy).

/** Whether `value` is an object whose property `mark` is `true`. */
export function hasErrorMark(value: unknown, mark: string): boolean {
  return (
    typeof value === 'object' && value !== null && (value as Record<string, unknown>)[mark] === true
  );
}
