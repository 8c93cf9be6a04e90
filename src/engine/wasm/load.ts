/**
 * Compiles a build of the core fetched from a URL (the page's engine: src/web), with an error
 * that names the URL and what is wrong: the browser's own messages ("HTTP status code is not
 * ok", "Incorrect response MIME type") name neither the file nor the status.
 */
export async function compileCoreFrom(url: string): Promise<WebAssembly.Module> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`${url}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}`);
  try {
    return await WebAssembly.compileStreaming(res);
  } catch (e) {
    throw new Error(`${url}: ${(e as Error).message}`);
  }
}
