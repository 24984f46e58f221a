// aws-local-stepfunctions calls Promise.withResolvers (Node 22+); Node 20 lacks it.
type Resolvers = { promise: Promise<unknown>; resolve: (v: unknown) => void; reject: (e?: unknown) => void };
const P = Promise as unknown as { withResolvers?: () => Resolvers };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = () => {
    let resolve!: (v: unknown) => void;
    let reject!: (e?: unknown) => void;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
