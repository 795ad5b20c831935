// The scripted model behind every framework peer (tests/peers/<framework>/):
// what an LLM would stream, as AI SDK LanguageModelV3 stream parts, chosen by
// the prompt. No network, no weights. Imports nothing: each framework's
// server.mjs wraps doStream() in the AI SDK's own MockLanguageModelV3 (ai/test).
//
//  - last message a tool result: the answer built from that result
//    ("It is 18°C and sunny in Paris.")
//  - a user message that mentions the weather: a sentence, then a call of the
//    backend tool get_weather with {"city":"Paris","unit":"celsius"}
//  - anything else: a text answer in three deltas, with multibyte characters

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function textParts(id, deltas) {
  return [
    { type: "text-start", id },
    ...deltas.map((delta) => ({ type: "text-delta", id, delta })),
    { type: "text-end", id },
  ];
}

function lastText(msg) {
  if (!msg) return "";
  if (typeof msg.content === "string") return msg.content;
  return msg.content.filter((p) => p.type === "text").map((p) => p.text).join("");
}

// What the model says, shared with the LangChain-side model (langgraph/graph.mjs).
export const said = {
  intro: ["Let me look ", "that up."],
  answer: (v) => [`It is ${v.temperature}°C `, `and ${v.sky} in ${v.city}.`],
  arithmetic: ["2 + 2 = 4 ", "— naïve ", "arithmetic ✓"],
  toolCall: { id: "call_weather_1", name: "get_weather", args: { city: "Paris", unit: "celsius" } },
};

// Text ids are unique per process, as a provider's are (some frameworks use
// them as AG-UI message ids).
let calls = 0;

// The stream parts for one model call, given its prompt (LanguageModelV3Prompt).
export function script(prompt) {
  const n = ++calls;
  const last = prompt[prompt.length - 1];
  let parts;
  let finish = "stop";
  if (last?.role === "tool") {
    const out = last.content.find((p) => p.type === "tool-result")?.output;
    const v = out?.type === "json" ? out.value : JSON.parse(out?.value ?? "{}");
    parts = textParts(`text-${n}`, said.answer(v));
  } else if (/weather/i.test(lastText([...prompt].reverse().find((m) => m.role === "user")))) {
    parts = [
      ...textParts(`text-${n}`, said.intro),
      { type: "tool-call", toolCallId: said.toolCall.id, toolName: said.toolCall.name,
        input: JSON.stringify(said.toolCall.args) },
    ];
    finish = "tool-calls";
  } else {
    parts = textParts(`text-${n}`, said.arithmetic);
  }
  return [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: `resp-${n}`, modelId: "scripted", timestamp: new Date(0) },
    ...parts,
    { type: "finish", finishReason: { unified: finish, raw: finish }, usage },
  ];
}

// A LanguageModelV3 doStream implementation for MockLanguageModelV3.
export async function doStream({ prompt }) {
  const parts = script(prompt);
  return {
    stream: new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    }),
  };
}

// The backend tool both frameworks register: a fixed answer.
export function weather({ city }) {
  return { city, temperature: 18, sky: "sunny" };
}
