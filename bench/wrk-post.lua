-- wrk script: POST the same kind of RunAgentInput the two tools send.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "text/event-stream"
if os.getenv("BENCH_WRK_CLOSE") == "1" then
  wrk.headers["Connection"] = "close"
end
wrk.body = '{"threadId":"wrk-thread","runId":"wrk-run","state":{},' ..
  '"messages":[{"id":"wrk-msg","role":"user","content":"What is the weather in Paris?"}],' ..
  '"tools":[],"context":[],"forwardedProps":{}}'
