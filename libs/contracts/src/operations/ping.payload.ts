import { IsBoolean, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Payload of `ping`: the operators' probe and the fault tests' workload. Below role operator a ping
 * sleeps at most `SVC_PING_MAX_SLEEP_SECONDS` and may not fail on purpose (`pingPolicy`).
 */
export class PingPayload {
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(3600)
  sleep_seconds?: number;

  /** Fail with `ping_failed`: operators only. */
  @IsOptional()
  @IsBoolean()
  fail?: boolean;
}
