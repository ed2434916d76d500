// `warren/testing`: what users need to test their own agents offline — a scripted model and a
// loopback server that speaks the real OpenAI and Anthropic wire formats (testing/mock-llm/).
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
  type MockLlmServer,
  type MockLlmServerOptions,
  type MockReply,
  type MockToolCall,
  type MockUsage,
  type RecordedRequest,
  startMockLlmServer,
} from './testing/mock-llm/server.js';
