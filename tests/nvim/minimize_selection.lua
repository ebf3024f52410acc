-- A real editor as the client of `hdd lsp` (tests/editor.rs runs it): headless Neovim
-- (0.7 and later) opens $TARGET, asks for the code actions of lines $FIRST..$LAST (as
-- `:'<,'>lua vim.lsp.buf.range_code_action()` would, without the picker), executes
-- "hdd: minimize selection", lets its own handlers show the progress and apply the edit,
-- and writes the buffer's lines to $RESULT and the progress kinds to $RESULT.progress.
local function fail(msg)
  io.stderr:write('FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

vim.cmd('edit ' .. os.getenv('TARGET'))
local bufnr = vim.api.nvim_get_current_buf()
local progress = {}
local default_progress = vim.lsp.handlers['$/progress']
vim.lsp.handlers['$/progress'] = function(err, result, ctx, config)
  table.insert(progress, result.value.kind)
  if default_progress then return default_progress(err, result, ctx, config) end
end

local id = vim.lsp.start_client({
  name = 'hdd',
  cmd = { os.getenv('HDD'), 'lsp' },
  root_dir = vim.fn.getcwd(),
  init_options = { test = './test.sh', jobs = 2 },
})
vim.lsp.buf_attach_client(bufnr, id)
if not vim.wait(10000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c and c.initialized
end, 20) then
  fail('no initialize')
end

local first, last = tonumber(os.getenv('FIRST')), tonumber(os.getenv('LAST'))
local params = {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = first - 1, character = 0 }, ['end'] = { line = last, character = 0 } },
  context = { diagnostics = {} },
}
local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 10000)
local action = res and res[id] and res[id].result and res[id].result[1]
if not action or action.command.command ~= 'hdd.minimizeSelection' then
  fail('no hdd action: ' .. vim.inspect(res))
end

local client, done = vim.lsp.get_client_by_id(id), false
client.request('workspace/executeCommand',
  { command = action.command.command, arguments = action.command.arguments },
  function(err, result) done = { err = err, result = result } end, bufnr)
if not vim.wait(120000, function() return done end, 20) then fail('executeCommand timed out') end
if done.err then fail(vim.inspect(done.err)) end
if not done.result.applied then fail('not applied: ' .. vim.inspect(done.result)) end

vim.fn.writefile(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), os.getenv('RESULT'))
vim.fn.writefile(progress, os.getenv('RESULT') .. '.progress')
print(string.format('hdd: %d -> %d bytes, %d tests, %d ms', done.result.before,
  done.result.after, done.result.tests, done.result.elapsed_ms))
vim.lsp.stop_client(id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
vim.cmd('qall!')
