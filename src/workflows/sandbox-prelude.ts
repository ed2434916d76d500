// The script's side of the sandbox: the workflow globals (agent, parallel, pipeline, phase, log,
// budget, args) written in JS over one host function, and the clock and randomness taken away so
// a relaunched script makes the same agent() calls in the same order.

/** Runs in the QuickJS context before the script; `__warrenHost` is removed from the globals. */
export const SANDBOX_PRELUDE = `
(() => {
  const host = globalThis.__warrenHost;
  delete globalThis.__warrenHost;
  const refuse = (what) => {
    throw new Error(what + ' is not available in a workflow: a resumed run must make the same agent() calls. Pass times, dates and seeds in args instead.');
  };
  const RealDate = Date;
  function WorkflowDate(...rest) {
    if (!new.target) refuse('Date()');
    if (rest.length === 0) refuse('new Date()');
    return new RealDate(...rest);
  }
  WorkflowDate.now = () => refuse('Date.now()');
  WorkflowDate.parse = RealDate.parse;
  WorkflowDate.UTC = RealDate.UTC;
  WorkflowDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: WorkflowDate });
  Object.defineProperty(globalThis, 'Date', { value: WorkflowDate, writable: false, configurable: false });
  Object.defineProperty(Math, 'random', { value: () => refuse('Math.random()'), writable: false, configurable: false });

  class AgentError extends Error {
    constructor(info) {
      super(info.message);
      this.name = 'AgentError';
      this.status = info.status;
      this.label = info.label;
      this.key = info.key;
    }
  }
  const call = (op, payload) => host(op, JSON.stringify(payload === undefined ? null : payload));
  const agent = (prompt, options) => {
    if (typeof prompt !== 'string' || prompt.length === 0) {
      return Promise.reject(new TypeError('agent(prompt, options): prompt must be a non-empty string'));
    }
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      return Promise.reject(new TypeError('agent(prompt, options): options must be an object'));
    }
    return call('agent', { prompt, options: options || {} }).then(
      (text) => JSON.parse(text),
      (text) => {
        const info = JSON.parse(text);
        // A refused call (bad options, a limit) is the script's error, not an item's failure.
        if (info.status === 'refused') throw new Error(info.message);
        throw new AgentError(info);
      },
    );
  };
  // A failed item is null in the list (as Claude Code's pipeline keeps it), so one failure does
  // not lose its siblings; why it failed is in the run's result, item by item.
  const settle = (promise) => Promise.resolve(promise).then((value) => value, (error) => {
    if (error instanceof AgentError) return null;
    throw error;
  });
  const parallel = (...tasks) => {
    const list = tasks.length === 1 && Array.isArray(tasks[0]) ? tasks[0] : tasks;
    call('items', { count: list.length, of: 'parallel()' });
    return Promise.all(list.map((task) => settle(typeof task === 'function' ? task() : task)));
  };
  const pipeline = (items, fn) => {
    if (!Array.isArray(items)) throw new TypeError('pipeline(items, fn): items must be an array');
    if (typeof fn !== 'function') throw new TypeError('pipeline(items, fn): fn must be a function');
    call('items', { count: items.length, of: 'pipeline()' });
    return Promise.all(items.map((item, index) => settle(Promise.resolve().then(() => fn(item, index)))));
  };
  const text = (parts) => parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');
  const budgetState = () => JSON.parse(call('budget'));
  const budget = Object.freeze({
    get total() { return budgetState().total; },
    spent: () => budgetState().spent,
    remaining: () => budgetState().remaining,
  });
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: false, configurable: false });
  define('agent', agent);
  define('parallel', parallel);
  define('pipeline', pipeline);
  define('phase', (title) => { call('phase', { title: String(title) }); });
  define('log', (...parts) => { call('log', { message: text(parts) }); });
  define('budget', budget);
  define('AgentError', AgentError);
  define('args', JSON.parse(call('args')));
  define('workflow', () => { throw new Error('workflows do not nest: a workflow cannot start another workflow'); });
})();
`;
