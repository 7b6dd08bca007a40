/**
 * The page's module preloads at low priority (ADR 037). React Router's <Scripts> preloads the
 * entry, the framework and the page's modules with the browser's default priority for
 * scripts (high), which puts 140 kB of JavaScript ahead of the stylesheet, the fonts and the
 * consent banner although the server-rendered page needs none of it to paint (forms work
 * without it). React preloads its own bootstrap modules with fetchpriority="low"; this does
 * the same for React Router's, by rewriting the `<link rel="modulepreload"` tags of the
 * document's <head> as it streams (they are all there: React hoists them into the head).
 */
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const TAG = '<link rel="modulepreload"';
const LOW = '<link rel="modulepreload" fetchpriority="low"';
const HEAD_END = '</head>';

/** The length of the longest end of `text` that may be the start of a tag or of the head's end, split by the chunk. */
function partialTail(text: string): number {
  for (let length = Math.min(text.length, TAG.length - 1); length > 0; length--) {
    const tail = text.slice(-length);
    if (TAG.startsWith(tail) || HEAD_END.startsWith(tail)) return length;
  }
  return 0;
}

export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder('utf8');
  let inHead = true;
  // The end of the text seen so far that may be the start of a tag split across chunks.
  let carry = '';
  const rewrite = (text: string) => text.replaceAll(TAG, LOW);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = carry + decoder.write(chunk);
      carry = '';
      if (!inHead) return callback(null, text);
      const end = text.indexOf(HEAD_END);
      if (end >= 0) {
        inHead = false;
        return callback(null, rewrite(text.slice(0, end)) + text.slice(end));
      }
      const cut = text.length - partialTail(text);
      carry = text.slice(cut);
      callback(null, rewrite(text.slice(0, cut)));
    },
    flush(callback) {
      const rest = carry + decoder.end();
      callback(null, inHead ? rewrite(rest) : rest);
    },
  });
}
