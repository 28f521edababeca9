-- A second client we did not write: neovim's built-in LSP client (0.7 API:
-- vim.lsp.start_client, buf_attach_client, vim.diagnostic.get). run.sh starts
-- `nvim --headless` on this script with JUICE_LINT (the binary) and BOOK (a
-- temporary copy of the canonical book). It exits 0 only when every step
-- below was seen; any error, failed check or timeout exits non-zero with a
-- message on stderr.

local TIMEOUT_MS = 15000

local function say(message)
  io.stderr:write('nvim check: ' .. message .. '\n')
end

local function fail(message)
  error({ check = message }, 0)
end

local function expect(condition, message)
  if not condition then fail(message) end
end

local function describe(diagnostics)
  local parts = {}
  for _, d in ipairs(diagnostics) do
    table.insert(parts, string.format('%d:%d %s %s', d.lnum, d.col, tostring(d.code), d.message))
  end
  return '[' .. table.concat(parts, '; ') .. ']'
end

-- The first diagnostic of `code` on `lnum` (0-based), waiting for it.
local function wait_for(bufnr, code, lnum, what)
  local found
  local ok = vim.wait(TIMEOUT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.code == code and d.lnum == lnum then
        found = d
        return true
      end
    end
    return false
  end, 20)
  expect(ok, string.format('no %s diagnostic on line %d within %d ms (%s); have %s',
    code, lnum + 1, TIMEOUT_MS, what, describe(vim.diagnostic.get(bufnr))))
  return found
end

-- The 0-based line holding `text` exactly.
local function line_of(bufnr, text)
  for index, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true)) do
    if line == text then return index - 1 end
  end
  fail('no line ' .. vim.inspect(text) .. ' in the buffer')
end

local function run()
  local binary = os.getenv('JUICE_LINT')
  local book = os.getenv('BOOK')
  expect(binary and vim.fn.executable(binary) == 1, 'JUICE_LINT is not an executable: ' .. tostring(binary))
  expect(book and vim.fn.isdirectory(book .. '/recipes') == 1, 'BOOK has no recipes/: ' .. tostring(book))

  vim.cmd('edit ' .. vim.fn.fnameescape(book .. '/recipes/menu.yaml'))
  local bufnr = vim.api.nvim_get_current_buf()

  local exit_code
  local client_id = vim.lsp.start_client({
    name = 'juice-lint',
    cmd = { binary, 'lsp' },
    root_dir = book,
    on_exit = function(code) exit_code = code end,
  })
  expect(client_id, 'vim.lsp.start_client failed')
  expect(vim.lsp.buf_attach_client(bufnr, client_id), 'vim.lsp.buf_attach_client failed')

  expect(vim.wait(TIMEOUT_MS, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized == true
  end, 20), 'the server did not finish initialize within ' .. TIMEOUT_MS .. ' ms')

  -- The book's one info, before any edit: the pipeline works.
  wait_for(bufnr, 'never-makeable', line_of(bufnr, '  strawberry-juice:'), 'at start')

  -- A typo, typed into the buffer: nvim sends it as an incremental change.
  local lnum = line_of(bufnr, '    recipe: { mango: 3 }')
  vim.api.nvim_buf_set_lines(bufnr, lnum, lnum + 1, true, { '    recipe: { mangoo: 3 }' })
  local typo = wait_for(bufnr, 'unknown-fruit', lnum, 'after the typo')
  expect(typo.col == 14 and typo.end_col == 20,
    string.format('the typo should span columns 14-20, got %d-%d', typo.col, typo.end_col))
  expect(typo.source == 'juice-lint', 'source: ' .. tostring(typo.source))
  expect(typo.severity == vim.diagnostic.severity.ERROR, 'severity: ' .. tostring(typo.severity))
  expect(typo.message:find("did you mean 'mango'", 1, true), 'message: ' .. typo.message)

  -- After a Korean label and an emoji: the server's UTF-16 columns become
  -- the right byte columns in nvim only if they were counted exactly.
  local last = vim.api.nvim_buf_line_count(bufnr)
  local item = '  kimchi-juice: { label: 김치🥬주스, recipe: { kiwii: 1 } }'
  vim.api.nvim_buf_set_lines(bufnr, last, last, true, { item })
  local korean = wait_for(bufnr, 'unknown-fruit', last, 'after the Korean line')
  local byte = item:find('kiwii', 1, true) - 1
  expect(korean.col == byte and korean.end_col == byte + 5,
    string.format('kiwii should span bytes %d-%d, got %d-%d', byte, byte + 5, korean.col, korean.end_col))

  -- Fixing the typo clears its diagnostic.
  vim.api.nvim_buf_set_lines(bufnr, lnum, lnum + 1, true, { '    recipe: { mango: 3 }' })
  expect(vim.wait(TIMEOUT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.lnum == lnum then return false end
    end
    return true
  end, 20), 'the fixed typo is still reported: ' .. describe(vim.diagnostic.get(bufnr)))

  -- shutdown, then exit: status 0.
  vim.lsp.stop_client(client_id)
  expect(vim.wait(TIMEOUT_MS, function() return exit_code ~= nil end, 20), 'the server did not exit after shutdown')
  expect(exit_code == 0, 'the server exited with ' .. tostring(exit_code) .. ' after shutdown')
end

local ok, err = xpcall(run, function(e)
  if type(e) == 'table' and e.check then return e.check end
  return debug.traceback(tostring(e), 2)
end)
if ok then
  say('ok: diagnostics at start, after a typo and after a Korean label; cleared; exit 0')
  vim.cmd('qall!')
else
  say('FAILED: ' .. tostring(err))
  vim.cmd('cquit')
end
