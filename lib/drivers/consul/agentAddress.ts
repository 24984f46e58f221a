import { ValidationError } from '../../model/errors.js';

export interface AgentEndpoint {
  secure: boolean;
  /** Bracketed for IPv6, ready to put in a URL. */
  host: string;
  port: number;
}

/**
 * Reads an agent address from an instance report: `10.0.0.5`, `10.0.0.5:8501`, `[fe80::1]:8500`,
 * `fe80::1` or `https://consul.vm.example:8501`. Missing parts come from the defaults.
 */
export function parseAgentAddress(
  address: string,
  defaults: { scheme: 'http' | 'https'; port: number },
): AgentEndpoint {
  const fail = (why: string): never => {
    throw new ValidationError('consul agent', [
      { path: 'address', message: `${JSON.stringify(address)} ${why}` },
    ]);
  };
  const text = address.trim();
  if (!text) fail('is empty');
  let url: URL;
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) url = new URL(text);
    else if (!text.startsWith('[') && (text.match(/:/g)?.length ?? 0) > 1)
      url = new URL(`${defaults.scheme}://[${text}]`);
    else url = new URL(`${defaults.scheme}://${text}`);
  } catch {
    return fail('is not a host, host:port or URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('must use http or https');
  if (url.pathname !== '/' || url.search || url.username) fail('must not carry a path, query or credentials');
  return {
    secure: url.protocol === 'https:',
    host: url.hostname,
    port: url.port ? Number(url.port) : defaults.port,
  };
}
