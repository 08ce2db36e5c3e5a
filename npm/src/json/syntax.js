// Where malformed JSON breaks: the offset of the first syntax error, and the
// position added to a `JSON.parse` message that names none.

/**
 * Node 20's `JSON.parse` names no position in many of its messages
 * (`Unexpected token '}', "{"a":}" is not valid JSON`). On that error path
 * only, find the offset of the first error and say where, with line and column.
 * An error thrown by a reviver (the text itself is valid) passes unchanged.
 *
 * @param {unknown} err
 * @param {string} text
 * @returns {unknown}
 */
export function located(err, text) {
  if (!(err instanceof SyntaxError) || /at position \d+/.test(err.message)) return err;
  const at = syntaxErrorOffset(text);
  if (at < 0) return err;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return new SyntaxError(`${err.message} (at position ${at}, line ${line} column ${column})`);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters; this is the rule that says so
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * The offset of the first JSON syntax error in `s`, or -1 if it is valid
 * (RFC 8259). Iterative, so deep nesting cannot overflow the stack.
 *
 * @param {string} s
 * @returns {number}
 */
export function syntaxErrorOffset(s) {
  const n = s.length;
  let i = 0;
  /** @type {number[]} open containers: 0x7b '{' or 0x5b '[' */
  const open = [];
  const skip = () => {
    for (let c = s.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = s.charCodeAt(++i));
  };
  const token = (/** @type {RegExp} */ re) => {
    re.lastIndex = i;
    if (!re.test(s)) return false;
    i = re.lastIndex;
    return true;
  };
  const key = () => {
    skip();
    if (!token(STRING)) return false;
    skip();
    if (s.charCodeAt(i) !== 0x3a) return false;
    i++;
    return true;
  };
  for (;;) {
    skip();
    const c = s.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      skip();
      if (s.charCodeAt(i) === c + 2) i++;
      else {
        open.push(c);
        if (c === 0x7b && !key()) return i;
        continue;
      }
    } else if (!(c === 0x22 ? token(STRING) : token(LITERAL) || token(NUMBER))) {
      return i;
    }
    // After a value: close containers until a ',' asks for the next value.
    for (;;) {
      skip();
      if (open.length === 0) return i < n ? i : -1;
      const top = open[open.length - 1];
      const d = s.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (top === 0x7b && !key()) return i;
        break;
      }
      if (d !== top + 2) return i;
      i++;
      open.pop();
    }
  }
}
