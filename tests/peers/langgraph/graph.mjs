// The LangGraph.js graph behind langgraph/server.mjs: a ReAct loop written
// with StateGraph (model node, ToolNode, toolsCondition) and one backend tool,
// get_weather. The model is LangChain's FakeStreamingChatModel
// (@langchain/core/utils/testing), given per call the chunks ../lib/model.mjs
// scripts for the prompt: no LLM, no network.
import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { END, MessagesValue, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { said, weather } from "../lib/model.mjs";

const getWeather = tool(async (args) => JSON.stringify(weather(args)), {
  name: "get_weather",
  description: "The current weather in a city",
  schema: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]) }),
});

// The chunks the model streams for these messages (see ../lib/model.mjs).
function chunks(messages) {
  const last = messages[messages.length - 1];
  const text = (deltas) => deltas.map((content) => new AIMessageChunk({ content }));
  if (last._getType() === "tool") return text(said.answer(JSON.parse(last.content)));
  const user = [...messages].reverse().find((m) => m._getType() === "human");
  if (/weather/i.test(String(user?.content ?? ""))) {
    const { id, name, args } = said.toolCall;
    return [...text(said.intro),
      new AIMessageChunk({ content: "", tool_call_chunks: [{ id, name, args: JSON.stringify(args), index: 0 }] })];
  }
  return text(said.arithmetic);
}

async function callModel(state, config) {
  const model = new FakeStreamingChatModel({ sleep: 0, chunks: chunks(state.messages) });
  let full;
  for await (const c of await model.stream(state.messages, config)) full = full ? full.concat(c) : c;
  return { messages: [full] };
}

// A StateSchema, so langgraph-api reads the state schema at run time (with an
// Annotation it would compile the file with TypeScript to find it: seconds).
const State = new StateSchema({ messages: MessagesValue });

export const graph = new StateGraph(State)
  .addNode("agent", callModel)
  .addNode("tools", new ToolNode([getWeather]))
  .addEdge(START, "agent")
  .addConditionalEdges("agent", toolsCondition, ["tools", END])
  .addEdge("tools", "agent")
  .compile();
