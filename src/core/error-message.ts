// What a thrown value says, fit for a message to a person: an Error's message, a string as it
// is, anything else as JSON. One definition, so every layer words a failure the same way.

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
