// How text from hooks reaches the model: inside a <system-reminder> that names the event, so the
// model can tell it apart from what the person or a tool said.

export function hookContextBlock(event: string, context: string): string {
  return `<system-reminder>\n${event} hook context:\n${context}\n</system-reminder>`;
}
