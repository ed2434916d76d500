// `warren/testing`: what users need to test their own agents offline — a scripted model, a
// loopback server that speaks the real OpenAI and Anthropic wire formats (testing/mock-llm/),
// and cassettes that record a real run's whole tree and replay it deterministically.
// The other files in testing/ are warren's own test helpers; the build leaves them out of dist/.
export {
  loadScriptedModel,
  ScriptedModel,
  type ScriptedModelOptions,
  scriptedModel,
} from './model/scripted-model.js';
export {
  loadScript,
  type Script,
  type ScriptError,
  type ScriptMatch,
  type ScriptToolCall,
  type ScriptTurn,
  type ScriptUsage,
} from './model/scripted-script.js';
export {
  type AgentIdEntry,
  Cassette,
  type CassetteEntry,
  type CassetteHeader,
  CassetteRecorder,
  type ModelCallEntry,
  type RemoteResultEntry,
  type TaskIdEntry,
  type ToolResultEntry,
} from './telemetry/cassette.js';
export { cassetteToScript, formatScript } from './telemetry/cassette-to-script.js';
export { recordModel } from './telemetry/record-model.js';
export { recordingExecutor, replayedExecutor } from './telemetry/remote-cassette.js';
export { Replay, ReplayMismatchError, replayModel } from './telemetry/replay-model.js';
export { replayedMcpTools, replayTools } from './telemetry/replay-tools.js';
export {
  type MockLlmServer,
  type MockLlmServerOptions,
  type MockReply,
  type MockToolCall,
  type MockUsage,
  type RecordedRequest,
  startMockLlmServer,
} from './testing/mock-llm/server.js';
