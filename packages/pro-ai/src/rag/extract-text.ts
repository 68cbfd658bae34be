import { UnsupportedDocumentError } from '../errors.js';

/** The formats the pipeline reads. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf';

export interface ExtractInput {
  readonly body: Uint8Array | string;
  /** The MIME type (`text/html; charset=utf-8`); `application/octet-stream` or none: read from `name`'s extension. */
  readonly contentType?: string;
  /** A file name or key, for its extension. */
  readonly name?: string;
}

export interface ExtractedText {
  readonly format: DocumentFormat;
  readonly text: string;
}

const BY_TYPE: Readonly<Record<string, DocumentFormat>> = { 'text/plain': 'text', 'text/markdown': 'markdown', 'text/x-markdown': 'markdown', 'text/html': 'html', 'application/xhtml+xml': 'html', 'application/pdf': 'pdf' };
const BY_EXTENSION: Readonly<Record<string, DocumentFormat>> = { txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown', html: 'html', htm: 'html', pdf: 'pdf' };

/** Which format a document is, from its content type, else its name's extension. */
export function documentFormat(contentType: string | undefined, name: string | undefined): DocumentFormat {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const byType = type ? BY_TYPE[type] : undefined;
  if (byType) return byType;
  const extension = name?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  const byExtension = extension ? BY_EXTENSION[extension] : undefined;
  if (byExtension && (type === undefined || type === 'application/octet-stream' || type === 'binary/octet-stream')) return byExtension;
  throw new UnsupportedDocumentError(
    `cannot extract text from ${name ? JSON.stringify(name) : 'a document'} of type ${JSON.stringify(contentType ?? 'unknown')}: the pipeline reads text/plain, text/markdown, text/html and application/pdf (or .txt, .md, .html, .pdf with no type); convert it first or skip it`,
  );
}

/**
 * The text of a document: plain text as is, markdown without its markup, HTML through html-to-text (no scripts,
 * styles, images or link targets), PDF through unpdf (PDF.js; text only, no OCR). The PDF and HTML libraries are
 * loaded on first use, so a function that never reads one does not pay for them.
 */
export async function extractText(input: ExtractInput): Promise<ExtractedText> {
  const format = documentFormat(input.contentType, input.name);
  const bytes = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : input.body;
  if (format === 'pdf') {
    const { extractText: pdfText, getDocumentProxy } = await pdfReader();
    try {
      // PDF.js takes ownership of (and detaches) the buffer it is given: give it a copy.
      // Verbosity 0: errors only (a damaged file's repair notes would go to stdout; its failure comes back as our error).
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
      const { text } = await pdfText(pdf, { mergePages: true });
      return { format, text: normalize(text) };
    } catch (error) {
      throw new UnsupportedDocumentError(`cannot read the PDF ${input.name ? JSON.stringify(input.name) : ''}: ${(error as Error).message}; check that it is a PDF with a text layer`, { cause: error });
    }
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (format === 'html') {
    const { convert } = await import('html-to-text');
    return {
      format,
      text: normalize(convert(text, { wordwrap: false, selectors: [{ selector: 'a', options: { ignoreHref: true } }, { selector: 'img', format: 'skip' }, { selector: 'h1', options: { uppercase: false } }, { selector: 'h2', options: { uppercase: false } }, { selector: 'h3', options: { uppercase: false } }] })),
    };
  }
  if (format === 'markdown') return { format, text: normalize(stripMarkdown(text)) };
  return { format, text: normalize(text) };
}

let pdf: Promise<typeof import('unpdf')> | undefined;

/**
 * unpdf on PDF.js's legacy build, the one PDF.js makes for Node: unpdf's own bundle is the browser build, which
 * prints "Please use the `legacy` build in Node.js environments" when loaded in Node.
 */
function pdfReader(): Promise<typeof import('unpdf')> {
  pdf ??= (async () => {
    const unpdf = await import('unpdf');
    await unpdf.definePDFJSModule(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
    return unpdf;
  })();
  return pdf;
}

/** Markdown to text: what a reader sees, without the markup (a renderer would be overkill for retrieval). */
function stripMarkdown(markdown: string): string {
  return markdown
    .replace(/^```.*$/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '- ')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(\*|_)(.+?)\1/g, '$2')
    .replace(/`([^`]+)`/g, '$1');
}

/** One kind of line break, no trailing spaces, at most one blank line in a row. */
function normalize(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
