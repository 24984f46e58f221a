/**
 * What Placid's local entry points (the `placid` CLI, the test set-up, the benches) set up first on
 * Node 20, before any library code runs. Library code assumes Node 22 APIs and a quiet AWS SDK; the
 * Lambdas run on Node 24 and need none of this.
 */

const major = Number(process.versions.node.split('.')[0]);

// aws-local-stepfunctions 3 (the local workflow runner) calls Promise.withResolvers, new in Node 22,
// in every Task state.
const P = Promise as unknown as { withResolvers?: () => unknown };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = () => {
    let resolve!: (value: unknown) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

// On Node < 22 each process's first AWS SDK client prints a 9-line notice that SDK releases after
// January 2027 need Node 22. The SDK pinned here runs on Node 20; @aws-sdk/core reads this variable
// when a client is created (emitWarningIfUnsupportedVersion). Set only when unset, so
// `AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false` brings the notice back.
if (major < 22) process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
