// The emulated Pico of `bgboard vboard --chip rp2040`: MicroPython's rp2 firmware (a .uf2) on the
// rp2040js emulator, with the board's parts played at the pin level. Started by bgboard/chip.py,
// which owns the serial pty and the flash image; the two talk over this process's stdin/stdout
// in messages of one type byte, a 4-byte little-endian length and the payload.
//
//   to the host   S serial bytes from the board's USB CDC     C USB connected
//                 F LED frame: float64 emulated ns + the strip bytes as sent (GRB, strip order)
//                 O OLED frame: float64 ns + the SSD1306's 128x64 memory (page by page)
//                 Z JSON stats (answer to Z)                  R JSON reset (the watchdog fired)
//                 P float64 emulated ns at which a key message took effect on the pins
//   from the host S serial bytes to the board     K JSON key {"row", "col", "down"[, "hold_ms"]
//                 [, "at": "erase", "scan_ms"]}: pressed as the next flash sector erase begins
//                 and released scan_ms after the firmware next drives a row pin (its first
//                 look at the keys after the write); its P comes then
//                 Z ask for the stats ("reset": then forget the longest feed gap)    Q quit
//
// What the emulator does not do by itself, and is done here:
// - flash writes: rp2040js ignores the SPI commands that erase and program the flash chip, so the
//   boot ROM's flash_range_erase / flash_range_program are carried out here when the core enters
//   them (and charged a W25Q16JV's typical 45 ms per 4 KB sector erase, 0.4 ms per 256-byte page);
//   each change to the filesystem area is written through to the image file at once, so that a
//   kill -9 of this process is a power cut that keeps what was on the flash;
// - pull-ups: inputs read 0 unless driven, so each input with its pad's pull-up on is driven high,
//   low when a pressed key connects it to a row pin driven low;
// - the USB host: rp2040js completes every IN transfer at once, also with no data, which keeps the
//   chip in a storm of USB interrupts a real host never causes; reads wait until there is data;
// - the watchdog: rp2040js counts it down and only logs when it fires; here it resets the chip
//   (this process exits with code 75 after the flash is written, and chip.py boots it again).
import fs from 'fs';
import { createRequire } from 'module';
import { pathToFileURL } from 'url';

const cfg = JSON.parse(process.argv[2]);
const require = createRequire(cfg.rp2040js + '/');
const { Simulator, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');
const { bootromB1 } = await import(pathToFileURL(cfg.bootrom).href);

const RESET_EXIT = 75;
const NS_PER_CYCLE = 8; // 125 MHz
const ERASE_NS = 45e6, PAGE_NS = 0.4e6;

const sim = new Simulator();
const mcu = sim.rp2040;
const { core, clock } = { core: mcu.core, clock: sim.clock };
mcu.loadBootrom(bootromB1);
mcu.logger = new ConsoleLogger(LogLevel.Error);
// rp2040js warns on the console of reads of two SIO registers it lacks (the firmware's boot probes
// them): not shown
const warn = console.warn;
console.warn = (...args) => {
  if (!String(args[0]).startsWith('Read from invalid SIO address')) warn(...args);
};

// ---- messages to and from chip.py
const out = [];
function emit(type, payload) {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 1);
  out.push(head, Buffer.from(payload.buffer ? payload : Buffer.from(payload)));
}
function emitTimed(type, ns, bytes) {
  const b = Buffer.alloc(8 + bytes.length);
  b.writeDoubleLE(ns, 0);
  Buffer.from(bytes).copy(b, 8);
  emit(type, b);
}
function flushOut() {
  if (out.length) {
    fs.writeSync(1, Buffer.concat(out.splice(0)));
  }
}

// ---- flash: the firmware, then the filesystem image, written through on every change
for (let off = 0, buf = fs.readFileSync(cfg.uf2); off + 512 <= buf.length; off += 512) {
  if (buf.readUInt32LE(off) !== 0x0a324655 || buf.readUInt32LE(off + 4) !== 0x9e5d5157) continue;
  if (buf.readUInt32LE(off + 8) & 1) continue; // not for the main flash
  const addr = buf.readUInt32LE(off + 12), size = buf.readUInt32LE(off + 16);
  mcu.flash.set(buf.subarray(off + 32, off + 32 + size), addr - 0x10000000);
}
const image = fs.openSync(cfg.image, 'r+');
const fsSize = fs.fstatSync(image).size;
fs.readSync(image, mcu.flash, cfg.fsOffset, fsSize, 0);

function persist(off, len) {
  const a = Math.max(off, cfg.fsOffset), b = Math.min(off + len, cfg.fsOffset + fsSize);
  if (b > a) fs.writeSync(image, mcu.flash, a, b - a, a - cfg.fsOffset);
}
function romFunction(code) {
  const rom16 = (a) => (bootromB1[a >>> 2] >>> ((a & 2) * 8)) & 0xffff;
  for (let p = rom16(0x14); rom16(p); p += 4) if (rom16(p) === code) return rom16(p + 2) & ~1;
  throw new Error('boot ROM function not found: ' + code.toString(16));
}
const ROM_ERASE = romFunction(0x4552), ROM_PROGRAM = romFunction(0x5052); // 'RE', 'RP'
const flashTimes = [];   // emulated ns of the latest flash erases and programs (stats' flash_ns)
function flashCall(pc) {
  const r = core.registers;
  flashTimes.push(clock.nanos);
  if (flashTimes.length > 500) flashTimes.shift();
  const off = r[0] & 0xffffff;
  if (pc === ROM_ERASE && atErase) {
    press(atErase);
    atErase = null;
  }
  if (pc === ROM_ERASE) {
    const len = r[1];
    mcu.flash.fill(0xff, off, off + len);
    persist(off, len);
    clock.tick(ERASE_NS * Math.ceil(len / 4096));
  } else {
    const len = r[2], src = r[1] - 0x20000000;
    for (let i = 0; i < len; i++) mcu.flash[off + i] &= mcu.sram[src + i];
    persist(off, len);
    clock.tick(PAGE_NS * Math.ceil(len / 256));
  }
  core.PC = core.LR & ~1; // return from the ROM function
}

// ---- the flash chip's unique ID (command 0x4B: four dummy bytes, then eight ID bytes), which
// machine.unique_id() and the board's id come from: rp2040js answers every flash command with
// zeros, so every emulated Pico would be 0000000000000000. A command runs while the firmware
// holds the chip select low through IO_QSPI's SS override (outover 2: low, 3: high).
const uniqueId = Buffer.from(cfg.uniqueId, 'hex');
const ssi = mcu.peripherals[0x18000], ioQspi = mcu.peripherals[0x40018];
let cmdIndex = -1, cmd = 0;
const qspiWrite = ioQspi.writeUint32.bind(ioQspi);
ioQspi.writeUint32 = (offset, value) => {
  if (offset === 0x0c) cmdIndex = ((value >>> 8) & 3) === 2 ? 0 : -1;  // GPIO_QSPI_SS_CTRL
  else qspiWrite(offset, value);
};
const ssiWrite = ssi.writeUint32.bind(ssi);
ssi.writeUint32 = (offset, value) => {
  if (offset === 0x60 && cmdIndex >= 0) {  // DR0, with the chip selected
    if (cmdIndex === 0) cmd = value & 0xff;
    const i = cmdIndex++ - 5;
    ssi.dr0 = cmd === 0x4b && i >= 0 && i < uniqueId.length ? uniqueId[i] : 0;
    return;
  }
  ssiWrite(offset, value);
};

// ---- LED panel: WS2812 bits from the pin's high times (368 ns = 0, 800 ns = 1)
const panel = mcu.gpio[cfg.panelPin];
let rise = -1, lastFall = 0, bitCount = 0, cur = 0;
const bytes = [];
panel.addListener((state) => {
  const t = clock.nanos;
  if (state === 1) rise = t;
  else if (state === 0 && rise >= 0) {
    cur = (cur << 1) | (t - rise > 550 ? 1 : 0);
    rise = -1;
    lastFall = t;
    if (++bitCount === 8) {
      bytes.push(cur);
      bitCount = cur = 0;
    }
  }
});
function latchFrame() {
  // a WS2812 latches after the line stays low for 50 us or more
  if (bytes.length && clock.nanos - lastFall > 50000) {
    emitTimed('F', lastFall, bytes);
    bytes.length = bitCount = cur = 0;
  }
}

// ---- keys: pull-ups, and a pressed key connecting its row pin to its column pin
const pressed = new Map(); // "row,col" -> release time in ns (Infinity: until released)
const driven = new Map();
function updateInputs() {
  for (const pin of cfg.inputs) {
    const g = mcu.gpio[pin];
    let v = g.pullupEnabled;
    for (const key of pressed.keys()) {
      const [row, col] = key.split(',').map(Number);
      if (col === pin && (row < 0 || (mcu.gpio[row].outputEnable && !mcu.gpio[row].outputValue))) v = false;
    }
    if (driven.get(pin) !== v) {
      driven.set(pin, v);
      g.setInputValue(v);
    }
  }
}
let atErase = null;      // a key to press when the next sector erase begins
let afterScan = null;    // [key, ms]: released ms after the next change of a row pin
function rowChanged() {
  if (afterScan && pressed.has(afterScan[0])) {
    pressed.set(afterScan[0], clock.nanos + afterScan[1] * 1e6);
    afterScan = null;
  }
  updateInputs();
}
for (const row of cfg.rows) mcu.gpio[row].addListener(rowChanged);
function press(msg) {
  const k = msg.row + ',' + msg.col;
  if (msg.down) pressed.set(k, msg.hold_ms ? clock.nanos + msg.hold_ms * 1e6 : Infinity);
  else pressed.delete(k);
  if (msg.scan_ms) afterScan = [k, msg.scan_ms];
  updateInputs();
  emitTimed('P', clock.nanos, []);
}
function key(msg) {
  if (msg.at === 'erase') atErase = msg;
  else press(msg);
}
function releaseDue() {
  let changed = false;
  for (const [k, until] of pressed) if (clock.nanos >= until) changed = pressed.delete(k);
  if (changed) updateInputs();
}

// ---- OLED: an SSD1306 on either I2C block, its display memory kept and sent on each data write
const oled = { ram: new Uint8Array(cfg.oledWidth * cfg.oledPages), col0: 0, col1: 127, page0: 0,
  page1: 7, col: 0, page: 0, mode: 0, first: true, args: [], data: false };
const OLED_ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1,
  0xda: 1, 0xdb: 1 }; // commands followed by arguments
function oledCommand(b) {
  const o = oled;
  o.args.push(b);
  const [c, x, y] = o.args;
  if (o.args.length <= (OLED_ARGS[c] || 0)) return;
  if (c === 0x21) [o.col0, o.col1, o.col] = [x, y, x];
  else if (c === 0x22) [o.page0, o.page1, o.page] = [x, y, x];
  o.args = [];
}
function oledData(b) {
  const o = oled;
  o.ram[o.page * cfg.oledWidth + o.col] = b;
  if (++o.col > o.col1) {
    o.col = o.col0;
    if (++o.page > o.page1) o.page = o.page0;
  }
  o.data = true;
}
for (const bus of mcu.i2c) {
  // after the address: a control byte (bit 6: data, else commands; bit 7 "Co": one byte follows,
  // then another control byte), then the bytes it announces
  let mine = false, control = true, isData = false, single = false;
  bus.onStart = () => bus.completeStart();
  bus.onConnect = (addr) => {
    mine = addr === cfg.oledAddress;
    control = true;
    bus.completeConnect(mine);
  };
  bus.onWriteByte = (b) => {
    if (mine) {
      if (control) {
        isData = (b & 0x40) !== 0;
        single = (b & 0x80) !== 0;
        control = false;
      } else {
        if (isData) oledData(b);
        else oledCommand(b);
        control = single;
      }
    }
    bus.completeWrite(mine);
  };
  bus.onReadByte = () => bus.completeRead(0xff);
  bus.onStop = () => {
    if (mine && oled.data) {
      emitTimed('O', clock.nanos, oled.ram);
      oled.data = false;
    }
    bus.completeStop();
  };
}

// ---- watchdog: feeds (writes of LOAD) timed; a trigger resets the chip
const wdt = mcu.peripherals[0x40058];
const feeds = { count: 0, last: -1, maxGap: 0 };
const wdtWrite = wdt.writeUint32.bind(wdt);
wdt.writeUint32 = (offset, value) => {
  if (offset === 0x04) {
    const t = clock.nanos;
    if (feeds.last >= 0) feeds.maxGap = Math.max(feeds.maxGap, t - feeds.last);
    feeds.last = t;
    feeds.count++;
  }
  wdtWrite(offset, value);
};
let resetReason = null;
wdt.onWatchdogTrigger = () => {
  resetReason = wdt.reason === 2 ? 'forced' : 'timeout';
  // stop its counter: rp2040js 1.4.1 would otherwise fire the alarm again at once, for ever
  wdt.alarm.enable = false;
  wdt.timer.enable = false;
};

// ---- USB CDC, with reads held until there is something to read
const cdc = new USBCDC(mcu.usbCtrl);
cdc.onDeviceConnected = () => emit('C', '');
cdc.onSerialData = (data) => emit('S', Buffer.from(data));
const endpointRead = mcu.usbCtrl.onEndpointRead;
let heldRead = null;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint === cdc.outEndpoint && cdc.txFIFO.empty) heldRead = [endpoint, size];
  else endpointRead(endpoint, size);
};
const toBoard = [];
function pumpSerial() {
  let n = 0;
  while (n < toBoard.length && !cdc.txFIFO.full) cdc.sendSerialByte(toBoard[n++]);
  toBoard.splice(0, n);
  if (heldRead && !cdc.txFIFO.empty) {
    const [e, s] = heldRead;
    heldRead = null;
    endpointRead(e, s);
  }
}

// ---- messages from chip.py
let inBuf = Buffer.alloc(0);
let quitting = false;
process.stdin.on('data', (chunk) => {
  inBuf = Buffer.concat([inBuf, chunk]);
  while (inBuf.length >= 5) {
    const n = inBuf.readUInt32LE(1);
    if (inBuf.length < 5 + n) break;
    const type = String.fromCharCode(inBuf[0]), body = inBuf.subarray(5, 5 + n);
    inBuf = inBuf.subarray(5 + n);
    if (type === 'S') for (const b of body) toBoard.push(b);
    else if (type === 'K') key(JSON.parse(body.toString()));
    else if (type === 'Z') {
      emit('Z', JSON.stringify(stats()));
      if (body.toString() === 'reset') {
        // from the next feed on (a gap across an idle stretch, when the emulated clock leaps to
        // its next alarm, is not the firmware's)
        feeds.maxGap = 0;
        feeds.last = -1;
      }
    }
    else if (type === 'Q') quitting = true;
  }
});
process.stdin.on('end', () => (quitting = true));

let busyNs = 0;
function stats() {
  return { ns: clock.nanos, busy_ns: busyNs, feeds: feeds.count, max_feed_gap_ns: feeds.maxGap,
    flash_ns: flashTimes };
}

// ---- the run loop: slices of instructions, then I/O
core.PC = 0x10000000;
if (process.env.BGBOARD_CHIP_DEBUG) {
  setInterval(() => console.error(`chip: ${(clock.nanos / 1e6).toFixed(1)} ms, pc ${core.PC.toString(16)}, ` +
    `waiting ${core.waiting}, next alarm ${clock.nanosToNextAlarm}, wdt ${wdt.enable} ${wdt.timer.enable} ${wdt.alarm.enabled} ${wdt.timer.counter} out ${out.length} in ${inBuf.length}`), 1000).unref();
}
function slice() {
  for (let i = 0; i < 100000; i++) {
    if (core.waiting) {
      const dn = clock.nanosToNextAlarm;
      clock.tick(dn);
      i += dn / NS_PER_CYCLE;
    } else {
      const pc = core.PC;
      if (pc === ROM_ERASE || pc === ROM_PROGRAM) flashCall(pc);
      const c = core.executeInstruction();
      clock.tick(c * NS_PER_CYCLE);
      busyNs += c * NS_PER_CYCLE;
    }
    if (resetReason) break;
  }
}
function run() {
  for (let k = 0; k < 4 && !resetReason; k++) {
    slice();
    releaseDue();
    latchFrame();
    pumpSerial();
  }
  updateInputs();
  if (resetReason) {
    emit('R', JSON.stringify({ reason: resetReason, ns: clock.nanos }));
    flushOut();
    fs.fsyncSync(image);
    process.exit(RESET_EXIT);
  }
  flushOut();
  if (quitting) {
    fs.fsyncSync(image);
    process.exit(0);
  }
  setImmediate(run);
}
run();
