// `warren/session`: a session on disk — the transcripts a run writes and reads back.

export { loadSession, readTranscript } from './session/read-transcript.js';
export { TranscriptWriter } from './session/transcript-writer.js';
