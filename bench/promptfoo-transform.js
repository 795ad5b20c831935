// promptfoo transformResponse for the http provider: reads the AG-UI SSE body
// (the same bytes ananke reads) into the assistant's text and the names of
// the tools it called.
module.exports = (json, text) => {
  let output = '';
  const tools = [];
  for (const line of String(text).split('\n')) {
    if (!line.startsWith('data:')) continue;
    const ev = JSON.parse(line.slice(5));
    if (ev.type === 'TEXT_MESSAGE_CONTENT') output += ev.delta;
    else if (ev.type === 'TOOL_CALL_START') tools.push(ev.toolCallName);
  }
  return { output, metadata: { tools } };
};
