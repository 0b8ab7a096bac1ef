#!/usr/bin/env python3
# Why this exists: @paraspell/xcm-router pulls polkadot-api -> @polkadot-api/cli -> tsup -> rollup,
# whose per-platform optional packages (@rollup/rollup-<os>-<cpu>[-<libc>]) are mostly missing
# from the npm registry mirror used here (404). `npm install` skips the missing optional packages
# and writes a lock without them; `npm ci` then refuses that lock as "not in sync" ("Missing:
# @rollup/rollup-android-arm-eabi@ from lock file", ...). Adding stub entries {version, os, cpu,
# optional} makes the lock complete again; `npm ci` skips them (os/cpu do not match this machine)
# and never fetches them. Nothing at run time needs rollup (it belongs to the papi CLI tooling).
#
# Run it from the project root after every `npm install` that rewrites package-lock.json:
#     python3 scripts/patch-lock-rollup.py
# It is idempotent and only adds entries that are missing.
import json
import sys

LOCK = sys.argv[1] if len(sys.argv) > 1 else 'package-lock.json'

with open(LOCK) as f:
    lock = json.load(f)
packages = lock['packages']
added = []
for key, entry in list(packages.items()):
    if not (key == 'node_modules/rollup' or key.endswith('/node_modules/rollup')):
        continue
    base = key[: -len('rollup')]
    for name, version in entry.get('optionalDependencies', {}).items():
        stub_key = base + name
        if stub_key in packages:
            continue
        # '@rollup/rollup-linux-x64-musl' -> os 'linux', cpu 'x64'
        os_name, cpu = name.split('/')[1][len('rollup-'):].split('-')[:2]
        packages[stub_key] = {'version': version, 'cpu': [cpu], 'license': 'MIT', 'optional': True, 'os': [os_name]}
        added.append(stub_key)
# npm writes the root entry first and the rest sorted; keep that order so diffs stay small.
lock['packages'] = dict(sorted(packages.items(), key=lambda kv: (kv[0] != '', kv[0])))
with open(LOCK, 'w') as f:
    json.dump(lock, f, indent=2)
    f.write('\n')
print(f'{LOCK}: added {len(added)} rollup optional stub(s)')
