#!/usr/bin/env node
'use strict';
require('../lib/launch.js').run('ananke');
