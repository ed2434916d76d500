// The models of a run: the main agent's, and how a child with a model of its own gets one; for
// real, recorded to a cassette (`--record`), or answered from one (`--replay`).
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { ConfigError } from '../core/config-error.js';
import type { Tool } from '../core/tool.js';
import { FirstContact } from '../model/first-contact.js';
import { isModelAlias } from '../model/model-alias.js';
import { endpointOfModel } from '../model/model-endpoint.js';
import { modelName } from '../model/pricing.js';
import { type ResolveModelOptions, resolveModel } from '../model/resolve-model.js';
import type { CassetteRecorder } from '../telemetry/cassette.js';
import type { RunArgs } from './parsed-args.js';

export interface RunModels {
  model: LanguageModelV4;
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
    const [{ Cassette }, { Replay }, { replayTools }] = await Promise.all([
      import('../telemetry/cassette.js'),
      import('../telemetry/replay-model.js'),
      import('../telemetry/replay-tools.js'),
    ]);
    const cassette = Cassette.read(args.replay, `--replay ${args.replay}`);
    const replay = new Replay(cassette);
    // Named as recorded, so prices, names and provider-specific prompts come out the same.
    return {
      model: replay.model(cassette.header.model ?? args.model),
      resolveChild: async (spec) => replay.model(spec),
      tools: (tools) => (args.replayTools ? replayTools(tools, cassette) : tools),
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
  const [{ CassetteRecorder }, { recordModel }] = await Promise.all([
    import('../telemetry/cassette.js'),
    import('../telemetry/record-model.js'),
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
    recorder,
    unreachable,
  };
}

/** A definition's model when it names one outright; `inherit` and aliases need a session model. */
export function fullModelSpec(model: string | undefined): string | undefined {
  if (!model || model === 'inherit' || isModelAlias(model)) return undefined;
  return model;
}
