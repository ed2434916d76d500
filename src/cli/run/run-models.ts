// The models of a run: the main agent's, and how a child with a model of its own gets one; for
// real, recorded to a cassette (`--record`), or answered from one (`--replay`).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ConfigError } from '../../core/config-error.js';
import type { RemoteExecutor } from '../../core/remote-executor.js';
import type { RunIds } from '../../core/run-ids.js';
import type { Tool } from '../../core/tool.js';
import { FirstContact } from '../../model/first-contact.js';
import { isModelAlias } from '../../model/model-alias.js';
import { endpointOfModel } from '../../model/model-endpoint.js';
import { modelName } from '../../model/pricing.js';
import { type ResolveModelOptions, resolveModel } from '../../model/resolve-model.js';
import type { CassetteRecorder } from '../../telemetry/cassette.js';
import type { RunArgs } from '../parsed-args.js';

export interface RunModels {
  model: LanguageModelV4;
  /** Where agent and task ids come from: in a replay, the recording's. */
  runIds?: RunIds;
  /**
   * The executor remote children run on: the live one recorded (`--record`), or in a replay
   * one answering from the cassette (`live` is then never made).
   */
  remoteExecutor?: (live: () => RemoteExecutor) => RemoteExecutor;
  /** A replay whose recording had remote children: they are answered without --restate-url. */
  replaysRemote?: boolean;
  /** A replay's main model as recorded (`provider:model`): what its remote children name. */
  replayedModel?: string;
  /** `--replay-tools`: MCP tools answer from the cassette; no server is started. */
  replaysMcp?: boolean;
  /** How a child with a model of its own gets it. */
  resolveChild: (spec: string, options: ResolveModelOptions) => Promise<LanguageModelV4>;
  /** The run's tools: the given ones, or with `--replay-tools` their recorded results. */
  tools(tools: Tool[]): Tool[];
  recorder?: CassetteRecorder;
  /** The setup mistake when the main model's server never answered (refused, no such host). */
  unreachable(): ConfigError | undefined;
}

/** The main model and how children get theirs: for real, recorded to a cassette, or replayed. */
export async function modelsFor(
  args: RunArgs,
  definitionModel: string | undefined,
): Promise<RunModels> {
  if (args.replay) {
    const [{ Cassette }, { Replay }, replaying, { replayedExecutor }] = await Promise.all([
      import('../../telemetry/cassette.js'),
      import('../../telemetry/replay-model.js'),
      import('../../telemetry/replay-tools.js'),
      import('../../telemetry/remote-cassette.js'),
    ]);
    const cassette = Cassette.read(args.replay, `--replay ${args.replay}`);
    const replay = new Replay(cassette);
    // Named as recorded, so prices, names and provider-specific prompts come out the same.
    return {
      model: replay.model(cassette.header.model ?? args.model),
      runIds: replay.runIds(),
      remoteExecutor: () => replayedExecutor(replay),
      replaysRemote: cassette.remoteResults.size > 0,
      replayedModel: cassette.header.model,
      resolveChild: async (spec) => replay.model(spec),
      tools: (tools) =>
        args.replayTools
          ? [...replaying.replayTools(tools, cassette), ...replaying.replayedMcpTools(cassette)]
          : tools,
      replaysMcp: args.replayTools,
      unreachable: () => undefined,
    };
  }
  const modelSpec = args.model ?? definitionModel;
  if (!modelSpec) {
    throw new ConfigError(
      '--model',
      'no model given',
      'pass --model anthropic:claude-sonnet-4-5 (or openai:…, openai-compatible:… with --base-url, scripted:<file>), or set WARREN_MODEL',
    );
  }
  // No request before the run's own first one: a server that is not there shows in its answer.
  const contact = new FirstContact();
  const model = await resolveModel(modelSpec, { baseUrl: args.baseUrl, fetch: contact.fetch });
  const unreachable = () => contact.unreachable(endpointOfModel(model));
  if (!args.record) {
    return { model, resolveChild: resolveModel, tools: (tools) => tools, unreachable };
  }
  const [{ CassetteRecorder }, { recordModel }, { recordingExecutor }] = await Promise.all([
    import('../../telemetry/cassette.js'),
    import('../../telemetry/record-model.js'),
    import('../../telemetry/remote-cassette.js'),
  ]);
  let recorder: CassetteRecorder;
  try {
    recorder = new CassetteRecorder({ file: args.record, model: modelName(model) });
  } catch (error) {
    throw new ConfigError(
      `--record ${args.record}`,
      `cannot write the cassette: ${(error as Error).message}`,
      'give a path in a folder that exists and you can write to',
    );
  }
  return {
    model: recordModel(model, recorder),
    resolveChild: async (spec, options) => recordModel(await resolveModel(spec, options), recorder),
    tools: (tools) => tools,
    remoteExecutor: (live) => recordingExecutor(live(), recorder),
    recorder,
    unreachable,
  };
}

/** A definition's model when it names one outright; `inherit` and aliases need a session model. */
export function fullModelSpec(model: string | undefined): string | undefined {
  if (!model || model === 'inherit' || isModelAlias(model)) return undefined;
  return model;
}
