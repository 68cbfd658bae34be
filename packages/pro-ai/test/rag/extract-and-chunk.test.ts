import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { encode } from 'gpt-tokenizer';
import { AiUsageError, chunkText, extractText, UnsupportedDocumentError } from '../../src/index.js';

describe('extractText', () => {
  it('reads text, markdown, HTML and PDF, by content type or by extension', async () => {
    expect(await extractText({ body: 'plain\r\nline', contentType: 'text/plain' })).to.deep.equal({ format: 'text', text: 'plain\nline' });
    expect((await extractText({ body: '# Title\n\nSome **bold** [link](https://x.example)', name: 'a.md' })).text).to.equal('Title\n\nSome bold link');
    const html = await extractText({ body: '<html><head><script>evil()</script></head><body><p>Hello <a href="https://x.example">there</a></p></body></html>', contentType: 'text/html; charset=utf-8' });
    expect(html).to.deep.equal({ format: 'html', text: 'Hello there' });
    const { pdfWithLines } = await import('../support/make-pdf.js');
    const pdf = await extractText({ body: pdfWithLines(['First line (of two)', 'Second line']), contentType: 'application/octet-stream', name: 'x.pdf' });
    expect(pdf).to.deep.equal({ format: 'pdf', text: 'First line (of two) Second line' });
  });

  it('reads a PDF in a fresh process without PDF.js warnings (its Node build, not the browser one)', async function () {
    this.timeout(120_000);
    // A new process: the PDF library is loaded once per process, and its warning comes at load time.
    const script = `import { extractText } from './src/index.js'; import { pdfWithLines } from './test/support/make-pdf.js';
      const r = await extractText({ body: pdfWithLines(['Only line']), contentType: 'application/pdf' }); console.log(JSON.stringify(r));`;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url), env: { ...process.env, FW_LICENSE_KEY: '' } });
    expect(stdout.trim().split('\n').pop()).to.equal(JSON.stringify({ format: 'pdf', text: 'Only line' }));
    expect(stdout + stderr).to.not.match(/Warning: |legacy/);
  });

  it('refuses a document it cannot read, naming the types it reads', async () => {
    const image = await extractText({ body: new Uint8Array([137, 80, 78, 71]), contentType: 'image/png', name: 'a.png' }).catch((e: unknown) => e);
    expect(image).to.be.instanceOf(UnsupportedDocumentError).and.to.include({ code: 'FW_ERR_AI_UNSUPPORTED_DOCUMENT' });
    expect((image as Error).message).to.contain('text/plain, text/markdown, text/html and application/pdf');
    const broken = await extractText({ body: 'not a pdf', contentType: 'application/pdf' }).catch((e: unknown) => e);
    expect(broken).to.be.instanceOf(UnsupportedDocumentError);
  });
});

describe('chunkText', () => {
  const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about topic ${i % 5} in a few words.`);

  it('cuts along sentences within maxTokens, repeating the end of each chunk at the start of the next', async () => {
    const chunks = await chunkText(sentences.join(' '), { maxTokens: 50, overlapTokens: 15 });
    expect(chunks.length).to.be.greaterThan(5);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.ordinal).to.equal(i);
      expect(chunk.tokens).to.be.at.most(50);
      expect(encode(chunk.text).length).to.be.at.most(50);
      expect(chunk.text).to.match(/^Sentence number \d+ .*\.$/);
      if (i > 0) expect(chunk.text.startsWith(chunks[i - 1]!.text.split(/(?<=\.) /).at(-1)!), `chunk ${i} starts with the previous one's last sentence`).to.equal(true);
    }
    // Every sentence is in some chunk.
    for (const s of sentences) expect(chunks.some((c) => c.text.includes(s))).to.equal(true);
  });

  it('cuts a sentence longer than maxTokens by tokens, and checks its options', async () => {
    const long = 'word '.repeat(300).trim() + '.';
    const chunks = await chunkText(long, { maxTokens: 64, overlapTokens: 0 });
    expect(chunks.length).to.be.at.least(4);
    for (const c of chunks) expect(c.tokens).to.be.at.most(64);
    await chunkText('x', { maxTokens: 10 }).then(() => expect.fail('should refuse'), (e: unknown) => expect(e).to.be.instanceOf(AiUsageError));
    await chunkText('x', { maxTokens: 100, overlapTokens: 100 }).then(() => expect.fail('should refuse'), (e: unknown) => expect(e).to.be.instanceOf(AiUsageError));
  });
});
