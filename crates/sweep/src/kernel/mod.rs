//! The kernels that play picks for the search, behind one choice.
//!
//! Five kernels give the same results at different speeds:
//!
//! - [`Kernel::Scalar`]: one pick at a time on a packed ring
//!   ([`packed::Engine::play`]); runs everywhere, on every board.
//! - [`Kernel::Avx2`]: the streaming kernel below on AVX2 registers, two
//!   lanes each ([`relay::Lanes::stream`] on the AVX2 backend); needs AVX2,
//!   BMI1, BMI2 and POPCNT and at most 6 pits a side, and is what CPUs
//!   without AVX-512 (most laptops and desktops) run. It only streams: its
//!   listing pass and `find` play picks one at a time, as the scalar kernel
//!   does.
//! - [`Kernel::Avx512Bw`]: the AVX-512 streaming kernel compiled for
//!   AVX-512 F, BW and VL without VBMI (Skylake-X, Cascade Lake, Cooper
//!   Lake): four lanes a register, 64-bit compress and expand, laps and
//!   rest from a reciprocal multiply instead of the VBMI tables, keys
//!   decoded with bit scans. It only streams, as the AVX2 kernel does.
//! - [`Kernel::Avx512Vbmi`]: every pick of a position on its own AVX-512 lane
//!   ([`relay::Lanes::play`]); needs AVX-512 F, BW and VBMI and a ring of at
//!   most 15 counters (7 pits a side). Where the CPU also has VBMI2 and VL
//!   and keys fit 64 bits, it decodes the search's keys itself.
//! - [`Kernel::Avx512Vbmi2`]: the picks of many positions as one stream of
//!   records, lanes refilled as their chains end ([`relay::Lanes::stream`]);
//!   needs VBMI2, VL, BMI2 and POPCNT as well, and at most 6 pits a side.
//!   It decodes 64-bit keys itself; wider keys (more than 53 stones in the
//!   pits) are decoded by the search and handed over as rings
//!   ([`relay::Lanes::records_ring`]), which still streams faster than
//!   the lockstep kernel plays (docs/search.md has the figures). The
//!   forward pass of the exact search streams; its listing pass and `find`
//!   use the lockstep form of the same kernel.
//!
//! The streaming kernels are one design over "a register of 16-byte
//! lanes" (a record a lane: ring, pick, node): the AVX-512 code in
//! [`relay`] is compiled twice, for VBMI and VBMI2 (tables and byte
//! compresses) and for F and BW only, the features chosen by the entry
//! points and everything below them inlined under those features; the
//! AVX2 module is the same loop on two lanes a register, with blends
//! where AVX-512 has mask registers. Dispatch is by hand, on a CPU check
//! cached once ([`relay::Lanes`] holds the backend): the kernel is chosen
//! once a search, not once a call, so a function pointer or a crate such
//! as `multiversion` would add nothing but a dependency.
//!
//! [`plan`] is the one place that decides, once per search, from the CPU,
//! the board and an optional cap ([`KernelChoice`], which tests and
//! benchmarks set, and the `MANCALA_SWEEP_KERNEL` environment variable sets
//! for the command line). Nothing else looks at CPU features or board sizes
//! to pick a path.

#[doc(hidden)]
pub mod packed;
#[doc(hidden)]
pub mod relay;

use std::fmt;
use std::str::FromStr;

/// A kernel that plays the picks of a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernel {
    /// One pick at a time; every CPU and board.
    Scalar,
    /// Picks of many positions streamed through AVX2 lanes.
    Avx2,
    /// All picks of a position in lockstep on AVX-512 lanes, on CPUs with
    /// AVX-512 F, BW and VBMI (the lockstep kernel).
    Avx512Vbmi,
    /// Picks of many positions streamed through AVX-512 lanes, on CPUs
    /// with AVX-512 F and BW but no VBMI.
    Avx512Bw,
    /// Picks of many positions streamed through AVX-512 lanes, on CPUs
    /// with VBMI2, VL, BMI2 and POPCNT as well (the streaming kernel).
    Avx512Vbmi2,
}

impl Kernel {
    /// Every kernel, slowest first (on the machine of docs/performance.md's kernel
    /// table, where all five run).
    pub const ALL: [Kernel; 5] = [
        Kernel::Scalar,
        Kernel::Avx2,
        Kernel::Avx512Vbmi,
        Kernel::Avx512Bw,
        Kernel::Avx512Vbmi2,
    ];

    /// The name `MANCALA_SWEEP_KERNEL` takes: the instruction set the
    /// kernel is compiled for, as every kernel's name is.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512Vbmi => "avx512vbmi",
            Kernel::Avx512Bw => "avx512bw",
            Kernel::Avx512Vbmi2 => "avx512vbmi2",
        }
    }

    /// `Ok` when this CPU can run the kernel, or the instruction sets it lacks.
    pub fn supported(self) -> Result<(), &'static str> {
        let cpu = cpu();
        match self {
            Kernel::Scalar => Ok(()),
            Kernel::Avx2 if cpu.avx2 => Ok(()),
            Kernel::Avx2 => Err("AVX2, BMI1, BMI2 and POPCNT (x86-64)"),
            Kernel::Avx512Vbmi if cpu.lockstep => Ok(()),
            Kernel::Avx512Vbmi => Err("AVX-512 F, BW and VBMI (x86-64)"),
            Kernel::Avx512Bw if cpu.avx512bw => Ok(()),
            Kernel::Avx512Bw => Err("AVX-512 F, BW and VL, AVX2, BMI1, BMI2 and POPCNT (x86-64)"),
            Kernel::Avx512Vbmi2 if cpu.streams => Ok(()),
            Kernel::Avx512Vbmi2 => {
                Err("AVX-512 F, BW, VBMI, VBMI2 and VL, BMI2 and POPCNT (x86-64)")
            }
        }
    }

    /// True when a board of `n` pits a side whose keys need `key_bits` bits
    /// fits the kernel's lanes and records.
    fn fits(self, n: usize, key_bits: u32) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Avx512Vbmi => 2 * n < 16,
            Kernel::Avx512Vbmi2 | Kernel::Avx512Bw | Kernel::Avx2 => n <= 6 && key_bits <= 128,
        }
    }
}

/// This machine in one line, for the records of long runs (the atlas, the
/// benchmarks): the CPU's model (from `/proc/cpuinfo` where there is one),
/// its hardware threads, and the kernels it can run.
pub fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let kernels: Vec<&str> = Kernel::ALL
        .into_iter()
        .rev()
        .filter(|k| k.supported().is_ok())
        .map(Kernel::name)
        .collect();
    format!("{model}, {threads} threads, kernels {}", kernels.join("/"))
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What this CPU can run, detected once: the feature checks are cheap,
/// but the search asks for every engine it builds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cpu {
    /// AVX-512 F, BW and VBMI: the lockstep kernel.
    pub lockstep: bool,
    /// Also VBMI2 and VL: the kernel decodes 64-bit keys.
    pub decodes: bool,
    /// Also BMI2 and POPCNT: the streaming kernel.
    pub streams: bool,
    /// AVX2, BMI1, BMI2 and POPCNT: the AVX2 streaming kernel.
    pub avx2: bool,
    /// Also AVX-512 F, BW and VL: the AVX-512 F/BW streaming kernel.
    pub avx512bw: bool,
}

/// The kernels' CPU features (none off x86-64).
pub(crate) fn cpu() -> Cpu {
    static CPU: std::sync::OnceLock<Cpu> = std::sync::OnceLock::new();
    *CPU.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let lockstep = has!("avx512f") && has!("avx512bw") && has!("avx512vbmi");
            let decodes = lockstep && has!("avx512vbmi2") && has!("avx512vl");
            let streams = decodes && has!("bmi2") && has!("popcnt");
            let avx2 = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt");
            let avx512bw = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl");
            Cpu {
                lockstep,
                decodes,
                streams,
                avx2,
                avx512bw,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Cpu {
            lockstep: false,
            decodes: false,
            streams: false,
            avx2: false,
            avx512bw: false,
        }
    })
}

/// Which kernels a search may use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum KernelChoice {
    /// The fastest one the CPU and board allow.
    #[default]
    Auto,
    /// At most this one: the fastest of it and the slower ones that the CPU
    /// and board allow, in the order of [`Kernel::ALL`] (so `Avx512Vbmi2` runs
    /// `Avx512Bw` on a CPU with AVX-512 F and BW but no VBMI2, and
    /// `Avx512Vbmi` on a board of 7 pits a side where the CPU has VBMI;
    /// `Avx512Vbmi` on a CPU without VBMI runs `Avx2`).
    AtMost(Kernel),
}

/// The kernels' names before they were named by instruction set, still
/// read so that scripts and settings that use them keep working.
const OLD_NAMES: [(&str, Kernel); 2] = [
    ("lockstep", Kernel::Avx512Vbmi),
    ("stream", Kernel::Avx512Vbmi2),
];

impl FromStr for KernelChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            return Ok(KernelChoice::Auto);
        }
        Kernel::ALL
            .into_iter()
            .map(|k| (k.name(), k))
            .chain(OLD_NAMES)
            .find(|&(name, _)| name == s)
            .map(|(_, k)| k)
            .map(KernelChoice::AtMost)
            .ok_or_else(|| {
                format!(
                    "{s:?} is not a kernel: use scalar, avx2, avx512vbmi, avx512bw, avx512vbmi2 or auto"
                )
            })
    }
}

/// What a search runs: its kernel, and whether the lockstep kernel decodes
/// the search's keys itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The kernel of the forward pass.
    pub kernel: Kernel,
    /// True when keys are decoded by the kernel (64-bit keys on a CPU with
    /// VBMI2 and VL).
    pub decode_keys: bool,
}

/// The plan for a board of `n` pits a side whose keys need `key_bits` bits.
pub fn plan(n: usize, key_bits: u32, choice: KernelChoice) -> Plan {
    let cap = match choice {
        KernelChoice::Auto => Kernel::Avx512Vbmi2,
        KernelChoice::AtMost(k) => k,
    };
    let kernel = Kernel::ALL
        .into_iter()
        .rev()
        .find(|&k| k <= cap && k.fits(n, key_bits) && k.supported().is_ok())
        .unwrap_or(Kernel::Scalar);
    Plan {
        kernel,
        decode_keys: matches!(kernel, Kernel::Avx512Vbmi | Kernel::Avx512Vbmi2)
            && key_bits <= 64
            && cpu().decodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_never_exceeds_the_cap_or_the_board() {
        for n in 1..=16 {
            for bits in [20, 64, 65, 128] {
                assert_eq!(
                    plan(n, bits, KernelChoice::AtMost(Kernel::Scalar)).kernel,
                    Kernel::Scalar
                );
                let auto = plan(n, bits, KernelChoice::Auto).kernel;
                assert!(auto.fits(n, bits) && auto.supported().is_ok());
                assert!(
                    plan(n, bits, KernelChoice::AtMost(Kernel::Avx512Vbmi)).kernel
                        <= Kernel::Avx512Vbmi
                );
            }
        }
        // Wide boards never get a SIMD kernel, whatever the CPU.
        assert_eq!(plan(8, 40, KernelChoice::Auto).kernel, Kernel::Scalar);
        assert_eq!(
            "avx512vbmi2".parse::<KernelChoice>(),
            Ok(KernelChoice::AtMost(Kernel::Avx512Vbmi2))
        );
        // The old names still read.
        assert_eq!(
            "stream".parse::<KernelChoice>(),
            Ok(KernelChoice::AtMost(Kernel::Avx512Vbmi2))
        );
        assert_eq!(
            "lockstep".parse::<KernelChoice>(),
            Ok(KernelChoice::AtMost(Kernel::Avx512Vbmi))
        );
        assert!("avx9"
            .parse::<KernelChoice>()
            .unwrap_err()
            .contains("\"avx9\""));
    }
}
