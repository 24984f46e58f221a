/** Entry point of the `placid` CLI; returns the exit status. (Commands land with their issues.) */
export async function main(argv: string[]): Promise<number> {
  process.stderr.write(`placid: no commands yet (${argv.join(' ')})\n`);
  return 2;
}
