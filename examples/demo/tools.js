// The frontend tools this page offers the agent (RunAgentInput.tools).
export const tools = [
  {
    name: "confirm_deploy",
    description: "Ask the user to confirm a production deployment before it happens.",
    parameters: {
      type: "object",
      properties: {
        service: { type: "string" },
        version: { type: "string", pattern: "^v\\d+\\.\\d+\\.\\d+$" },
        replicas: { type: "integer", minimum: 1, maximum: 20 },
        notes: { type: "string" },
      },
      required: ["service", "version", "replicas"],
      additionalProperties: false,
    },
  },
];
