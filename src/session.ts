// `warren/session`: a session on disk — the feed that writes a session's events before any
// host shows them, the transcripts it writes and reading them back.

export { EventFeed, type EventFeedOptions, type EventListener } from './session/event-feed.js';
export { loadSession, readTranscript } from './session/read-transcript.js';
export { TranscriptWriter } from './session/transcript-writer.js';
