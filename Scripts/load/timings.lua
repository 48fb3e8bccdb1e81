-- wrk script of Scripts/load-test.sh. Each wrk thread builds 20,000 requests for /v1/timings at
-- random places (latitude -60…60, any longitude), random days of 2000–2049, random AlAdhan methods and
-- one of ten zones, then sends them round-robin: the server cannot answer from a cache, and wrk spends
-- no more time per request than on the bare server's run (which uses this same script).
-- Responses other than 200 are counted and reported on the RESULT line.
local methods = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}
local zones = {
  "UTC", "Europe/London", "Asia/Riyadh", "America/New_York", "Asia/Karachi", "Asia/Jakarta", "Africa/Cairo",
  "Europe/Istanbul", "Australia/Sydney", "America/Sao_Paulo",
}
local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(20270301 + id)
  non200 = 0
  requests = {}
  for i = 1, 20000 do
    local path = string.format(
      "/v1/timings/%02d-%02d-%04d?latitude=%.4f&longitude=%.4f&method=%d&timezonestring=%s",
      math.random(1, 28), math.random(1, 12), math.random(2000, 2049),
      math.random() * 120 - 60, math.random() * 360 - 180,
      methods[math.random(#methods)], zones[math.random(#zones)])
    requests[i] = wrk.format("GET", path)
  end
  next_request = 0
end

function request()
  next_request = next_request % #requests + 1
  return requests[next_request]
end

function response(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + thread:get("non200") end
  local errors = summary.errors
  io.write(string.format(
    "RESULT requests=%d rps=%.0f p50_us=%d p99_us=%d max_us=%d socket_errors=%d non200=%d " ..
    "(connect=%d read=%d write=%d timeout=%d)\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99),
    latency.max, errors.connect + errors.read + errors.write + errors.timeout, bad + errors.status,
    errors.connect, errors.read, errors.write, errors.timeout))
end
