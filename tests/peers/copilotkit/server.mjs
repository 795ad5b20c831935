// An AG-UI server built with CopilotKit: @copilotkitnext/runtime's own
// endpoint (createCopilotEndpointExpress: POST /api/agent/:agentId/run answers
// a RunAgentInput with AG-UI events as SSE) serving a @copilotkitnext/agent
// BuiltInAgent (the Vercel AI SDK's streamText underneath) with one backend
// tool (get_weather). Its model is the AI SDK's MockLanguageModelV3 (ai/test)
// replaying ../lib/model.mjs: no LLM, no network. Versions: package.json
// (pinned) and the lock.
import express from "express";
import { BuiltInAgent, defineTool } from "@copilotkitnext/agent";
import { CopilotRuntime } from "@copilotkitnext/runtime";
import { createCopilotEndpointExpress } from "@copilotkitnext/runtime/express";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { doStream, weather } from "../lib/model.mjs";
import { listen } from "../lib/serve.mjs";

const agent = new BuiltInAgent({
  model: new MockLanguageModelV3({ doStream }),
  prompt: "You answer questions about the weather.",
  maxSteps: 3,
  tools: [
    defineTool({
      name: "get_weather",
      description: "The current weather in a city",
      parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]) }),
      execute: async (args) => weather(args),
    }),
  ],
});

const runtime = new CopilotRuntime({ agents: { "weather-agent": agent } });
const app = express();
app.use(createCopilotEndpointExpress({ runtime, basePath: "/api" }));
// --requests is not honoured here: the runtime reads the request body itself.
listen("copilotkit-server", () => app);
