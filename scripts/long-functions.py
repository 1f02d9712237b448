#!/usr/bin/env python3
"""Lists the Swift functions and initialisers longer than LIMIT lines (default 80), counted
from the `func`/`init` line to its closing brace, braces in strings and comments ignored; a
function whose line before or first line inside says "one piece" is marked. Usage: long-functions.py [LIMIT] [DIR...]
(default: Sources)."""
import os, re, sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|class|final|mutating|'
                  r'nonisolated(?:\(unsafe\))?|override|convenience|required)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b)')


def code_only(line, state):
    """The line without its comments and string literals; `state` carries /* */ and \"\"\" blocks."""
    out, i = [], 0
    while i < len(line):
        if state['block']:
            j = line.find('*/', i)
            if j < 0:
                break
            state['block'], i = False, j + 2
        elif state['multi']:
            j = line.find('"""', i)
            if j < 0:
                break
            state['multi'], i = False, j + 3
        elif line.startswith('//', i):
            break
        elif line.startswith('/*', i):
            state['block'], i = True, i + 2
        elif line.startswith('"""', i):
            state['multi'], i = True, i + 3
        elif line[i] == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == '\\' else 1
            i = j + 1
        else:
            out.append(line[i])
            i += 1
    return ''.join(out)


def long_functions(path, limit):
    lines = open(path, encoding='utf-8').read().split('\n')
    state = {'block': False, 'multi': False}
    code = [code_only(l, state) for l in lines]
    for n, l in enumerate(code):
        m = DECL.match(l)
        if not m:
            continue
        depth, opened = 0, False
        for k in range(n, len(code)):
            for ch in code[k]:
                if ch == '{':
                    depth, opened = depth + 1, True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                if k - n + 1 > limit:
                    marked = any('one piece' in lines[j] for j in (n - 1, n + 1) if 0 <= j < len(lines))
                    yield k - n + 1, n + 1, m.group(1).strip(), marked
                break
            if not opened and k > n + 5:
                break  # a protocol requirement: no body


def main():
    args = sys.argv[1:]
    limit = int(args.pop(0)) if args and args[0].isdigit() else 80
    found = []
    for root in args or ['Sources']:
        for folder, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith('.swift'):
                    path = os.path.join(folder, f)
                    found += [(length, f"{path}:{line}", name, marked) for length, line, name, marked in long_functions(path, limit)]
    for length, where, name, marked in sorted(found, reverse=True):
        print(f"{length:5d}  {where}  {name}{'  (one piece, said why)' if marked else ''}")


if __name__ == '__main__':
    main()
